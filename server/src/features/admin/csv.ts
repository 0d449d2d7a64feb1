/** A value of a numeric or code column (ids, amounts, roles, times): quoted only when it must be. */
export function csvValue(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * A value a user chose (a username): a leading `=`, `+`, `-`, `@`, tab or carriage return would make a
 * spreadsheet run it as a formula, so it gets a leading apostrophe (OWASP "CSV injection").
 */
export function csvText(value: string | null | undefined): string {
  if (value === null || value === undefined) return '';
  return csvValue(/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);
}

/** One RFC 4180 record. */
export function csvLine(values: readonly string[]): string {
  return `${values.join(',')}\r\n`;
}
