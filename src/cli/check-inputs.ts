// The inputs of `locator check` (docs/check.md): URL arguments, files and standard input, read for URLs (RFC 1738 appendix) or by their markup.
import { createReadStream } from 'node:fs';
import { access, open, readFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { resolve as resolvePath } from 'node:path';
import { constants } from 'node:fs';
import type { CheckInput } from '../check/index.js';
import { formatOf, type MarkupFormat } from '../check/markup/format.js';
import type { DocumentReader, FileReader, RemoteOptions } from '../check/markup/remote.js';
import { Url } from '../core/url.js';
import { tryParse } from '../schemes/registry.js';
import { UsageError, type Io } from './command.js';

/** How a document is read: by its name (auto), as plain text, Markdown or HTML. */
export type FormatIn = 'auto' | 'text' | MarkupFormat;

/** What the markup readers are given by the command line. */
export interface MarkupCommandOptions {
  formatIn: FormatIn;
  base?: string;
  plain: boolean;
  /** --include-verbatim: also the URLs of code blocks and spans, <pre> and <code>. */
  verbatim?: boolean;
  /** How http: and https: documents are read for their fragments: the probes' --timeout, --deadline and policy. */
  remote?: RemoteOptions;
}

/** The text of a file: URL (its fragment's document), at most `max` octets of it, or why it cannot be read. */
const readFileUrl: FileReader = async (url, max) => {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(fileURLToPath(url), 'r');
    const buffer = Buffer.alloc(max + 1);
    let size = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, size, buffer.length - size, null);
      if (bytesRead === 0) break;
      size += bytesRead;
      if (size > max) return { unread: `longer than ${max} octets` };
    }
    return { text: buffer.toString('utf8', 0, size) };
  } catch (e) {
    return { unread: (e as Error).message };
  } finally {
    await handle?.close();
  }
};

async function wholeText(source: AsyncIterable<string | Uint8Array>): Promise<string> {
  const parts: Buffer[] = [];
  for await (const c of source) parts.push(typeof c === 'string' ? Buffer.from(c) : Buffer.from(c));
  return Buffer.concat(parts).toString('utf8');
}

/** A document read as Markdown or HTML (./check/markup/): the file is read when its links are first asked for. */
function markupInput(
  file: string,
  format: MarkupFormat,
  text: () => Promise<string>,
  location: string | null,
  m: MarkupCommandOptions,
  read: DocumentReader,
): CheckInput {
  return {
    file,
    links: (async function* () {
      // The parsers are loaded only when a Markdown or HTML document is read.
      const { markupLinks } = await import('../check/markup/index.js');
      yield* markupLinks(await text(), {
        format,
        location,
        ...(m.base !== undefined ? { base: m.base } : {}),
        plain: m.plain,
        verbatim: m.verbatim === true,
        read,
      });
    })(),
  };
}

/** The inputs of the command line: URLs (arguments that parse as URLs), files, "-" for standard input; none: standard input. */
export async function commandInputs(args: string[], io: Io, m?: MarkupCommandOptions): Promise<CheckInput[]> {
  const list = args.length === 0 ? ['-'] : args;
  const out: CheckInput[] = [];
  const formatIn = m?.formatIn ?? 'auto';
  // One reader of the documents fragments name, for the whole run: each read once.
  let reader: Promise<DocumentReader> | undefined;
  const read: DocumentReader = async (url, slot) =>
    (
      await (reader ??= import('../check/markup/remote.js').then((r) => r.documentReader(readFileUrl, m?.remote ?? {})))
    )(url, slot);
  for (const a of list) {
    if (a === '-') {
      const stdin = io.stdin as AsyncIterable<string | Uint8Array>;
      if (m !== undefined && (formatIn === 'markdown' || formatIn === 'html')) {
        out.push(markupInput('-', formatIn, () => wholeText(stdin), null, m, read));
      } else out.push({ file: '-', text: stdin });
      continue;
    }
    if (tryParse(a) instanceof Url) {
      out.push(a);
      continue;
    }
    try {
      await access(a, constants.R_OK);
    } catch (e) {
      throw new UsageError(`${a} is neither a URL nor a file that can be read: ${(e as Error).message}`);
    }
    const format = formatIn === 'auto' ? formatOf(a) : formatIn === 'text' ? null : formatIn;
    if (m !== undefined && format !== null) {
      out.push(markupInput(a, format, () => readFile(a, 'utf8'), pathToFileURL(resolvePath(a)).href, m, read));
    } else out.push({ file: a, text: createReadStream(a) });
  }
  return out;
}
