// The zh_CN namespaces as one chunk, fetched when the language is chosen (loadBundles in i18n/index.ts).
export default import.meta.glob<Record<string, unknown>>('./zh_CN/*.json', { eager: true, import: 'default' });
