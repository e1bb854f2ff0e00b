// Gopher+ +ASK forms (RFC 1738 3.4.5, 3.4.9; Gopher+ 2.7): the form asked for, filled in, sent.

import type { Url } from '../../core/url.js';
import { LocatorError } from '../../core/errors.js';
import { INVALID_FIELD } from '../../schemes/codes.js';
import { formatRequest } from '../../schemes/notes.js';
import type { GopherFields } from '../../schemes/fields.js';
import { redactUrl as redactHref } from '../../operations/redact.js';
import { NEEDS_INPUT, PROTOCOL_ERROR, type Resource } from '../types.js';
import { parseAsk, parseAttributes } from './parser.js';
import { concatBytes } from '../framing/bytes.js';
import type { AskQuestion, GopherOpenOptions } from './types.js';
import { octetParts, requestOctets, TAB_OCTET, utf8, type Exchange } from './request.js';
import { connect, dataReader, readAll, readHeader, retrieve, text, throwPlusError } from './reply.js';

/** The largest +ASK attribute reply accepted. */
const ASK_REPLY_LIMIT = 1024 * 1024;

/**
 * The request for an item's +ASK attribute (RFC 1738 3.4.5; Gopher+ 2.7): selector TAB "!+ASK"
 * CR LF, from the URL's octets (the first exchange of a "?" form and of a filled-in form).
 */
function askExchange(url: Url, f: GopherFields): Exchange {
  return {
    request: concatBytes([octetParts(url).selector, utf8.encode('\t!+ASK\r\n')]),
    shown: formatRequest(`${f.selector}\t!+ASK\r\n`),
    plus: true,
    secrets: [],
  };
}

/** Asks the server for the item's +ASK attribute (the first exchange of explain()) and reads the questions. */
async function fetchForm(url: Url, f: GopherFields, options: GopherOpenOptions): Promise<AskQuestion[]> {
  const where = redactHref(url);
  const conn = await connect(url, options, []);
  try {
    const ask = askExchange(url, f);
    await conn.write(ask.request, ask.shown);
    const header = await readHeader(conn);
    if (!header.ok) await throwPlusError(conn, header, where);
    const all = await readAll(dataReader(conn, header.length), ASK_REPLY_LIMIT);
    if (all === null)
      throw new LocatorError(
        PROTOCOL_ERROR,
        -1,
        `the +ASK attribute of ${where} is larger than ${ASK_REPLY_LIMIT} octets`,
      );
    const block = parseAttributes(text.decode(all)).find((s) => s.blocks.ASK !== undefined)?.blocks.ASK;
    if (block === undefined) throw new LocatorError(PROTOCOL_ERROR, -1, `the server sent no +ASK block for ${where}`);
    return parseAsk(block);
  } finally {
    conn.close();
  }
}

/**
 * The second exchange of a "?" form (RFC 1738 3.4.9, draft 1994-03 Gopher): selector [TAB
 * search] TAB "+" TAB "1" CR LF, then the answers as a "+-1" data block: one line each (an
 * AskL answer may take several), a line starting with "." doubled, and a "." line at the end.
 */
function answerExchange(url: Url, f: GopherFields, questions: AskQuestion[], answers: string[]): Exchange {
  if (answers.length !== questions.length) {
    throw new LocatorError(
      INVALID_FIELD,
      -1,
      `the +ASK form has ${questions.length} questions but ${answers.length} answers were given`,
    );
  }
  const lines: string[] = [];
  answers.forEach((a, i) => {
    const split = a.split(/\r?\n/);
    if (split.length > 1 && questions[i].kind !== 'AskL') {
      throw new LocatorError(
        INVALID_FIELD,
        -1,
        `the answer to "${questions[i].prompt}" (${questions[i].kind}) must be one line`,
      );
    }
    for (const l of split) lines.push(l.startsWith('.') ? '.' + l : l);
  });
  const head = f.selector + (f.search === null || f.search === '' ? '' : '\t' + f.search);
  const block = `\t+\t1\r\n+-1\r\n${lines.map((l) => l + '\r\n').join('')}.\r\n`;
  const p = octetParts(url);
  const selectorAndSearch =
    p.search !== null && p.search.length > 0 ? concatBytes([p.selector, TAB_OCTET, p.search]) : p.selector;
  const secrets = answers.filter((_, i) => questions[i].kind === 'AskP');
  return {
    request: concatBytes([selectorAndSearch, utf8.encode(block)]),
    shown: formatRequest(head + block),
    plus: true,
    secrets,
  };
}

/** "?" (RFC 1738 3.4.5): fetch the form, have options.ask fill it in, send the answers. */
export async function openForm(url: Url, f: GopherFields, options: GopherOpenOptions): Promise<Resource> {
  if (options.ask === undefined) {
    throw new LocatorError(
      NEEDS_INPUT,
      -1,
      `${redactHref(url)} names an item with a +ASK form to fill in: pass the ask option (RFC 1738 3.4.5)`,
    );
  }
  const questions = (await fetchForm(url, f, options)).filter((q) => q.kind !== 'Note');
  const answers = await options.ask(questions);
  return retrieve(url, f, answerExchange(url, f, questions, answers), options);
}

/**
 * A form filled in within the URL (RFC 1738 3.4.9): its data block is several request lines that
 * the URL, not the client, writes. The policy has let it through (the default port, or a port
 * allowed explicitly that is no other protocol's; never after a redirect). The client first asks
 * for the item's +ASK attribute, as for "?", and sends the data block only when the server
 * answers as a Gopher+ server with the form, and the block holds a value for each question (an
 * AskL question may take several lines). A server of another protocol answers the one-line
 * question with no Gopher+ header, and the lines are never sent.
 *
 * DEVIATION: RFC 1738 3.4.9 has the client send the form as written, in one exchange; locator
 * asks for the form first (RFC 1738 6: a URL must not make the client write lines of its choosing
 * to a server that did not ask for them).
 */
export async function openFilledForm(url: Url, f: GopherFields, options: GopherOpenOptions): Promise<Resource> {
  const questions = (await fetchForm(url, f, options)).filter((q) => q.kind !== 'Note');
  const values = f.plus?.askData ?? null;
  if (values !== null) {
    const many = questions.some((q) => q.kind === 'AskL');
    if (many ? values.length < questions.length : values.length !== questions.length) {
      throw new LocatorError(
        INVALID_FIELD,
        -1,
        `the +ASK form of ${redactHref(url)} has ${questions.length} questions, but the URL's data block holds ${values.length} values (RFC 1738 3.4.9)`,
      );
    }
  }
  return retrieve(
    url,
    f,
    { request: requestOctets(url), shown: formatRequest(f.request), plus: true, secrets: [] },
    options,
  );
}
