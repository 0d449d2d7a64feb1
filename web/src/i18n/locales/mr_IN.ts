// The mr_IN namespaces as one chunk, fetched when the language is chosen (loadBundles in i18n/index.ts).
export default import.meta.glob<Record<string, unknown>>('./mr_IN/*.json', { eager: true, import: 'default' });
