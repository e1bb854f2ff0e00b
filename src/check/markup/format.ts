// The format of a document by its name, for `locator check` (no parser loaded to tell it).
export type MarkupFormat = 'markdown' | 'html';

/** The format of a document by its name's extension: null for plain text. */
export function formatOf(name: string): MarkupFormat | null {
  const ext = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase();
  if (ext === undefined) return null;
  if (['md', 'markdown', 'mdown', 'mkd', 'mkdn'].includes(ext)) return 'markdown';
  if (['html', 'htm', 'xhtml'].includes(ext)) return 'html';
  return null;
}
