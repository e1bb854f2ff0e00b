// What the gopher client adds to the common client types (src/clients/types.ts): its error
// codes, the error class that carries a server's error, a menu item, a +ASK question, and the
// option that answers +ASK forms. No networking here: the parser and menu modules import it.

import { LocatorError, defineCode } from '../../core/errors.js';
import type { OpenOptions } from '../types.js';

/** A Gopher server said it cannot serve the item (a "-" Gopher+ reply, or a lone type-3 line). */
export const GOPHER_ERROR = defineCode(
  'gopher-error',
  'error',
  'Gopher+ 2.3',
  'the Gopher server answered with an error',
  'protocol',
);

/** openMenu() was given a URL whose gophertype is not a menu ("1") or a search ("7"). */
export const GOPHER_NOT_MENU = defineCode(
  'gopher-not-menu',
  'error',
  'RFC 1436 3.8',
  'only items of type 1 (a menu) and 7 (a search, whose answer is a menu) are read as menus',
  'protocol',
);

/**
 * A Gopher server's error, as a typed LocatorError (code `gopher-error`).
 * Gopher+ 2.3: "-" <length> CR LF, then an error text whose first token is the error number
 * (1 item is not available, 2 try again later, 3 item has moved) and whose first line may give
 * the administrator's address; the following lines are the message.
 * RFC 1436 3.8: a plain Gopher server answers with a type-3 (error) line instead; its display
 * string is the message and `errorNumber` is null.
 */
export class GopherError extends LocatorError {
  /** The Gopher+ error number (1, 2, 3, ...), or null for a type-3 line. */
  readonly errorNumber: number | null;
  /** The rest of the first line of a Gopher+ error (usually the administrator), or null. */
  readonly contact: string | null;
  /** The server's message. */
  readonly text: string;

  constructor(errorNumber: number | null, contact: string | null, text: string, where: string) {
    const n =
      errorNumber === null
        ? ' (a type-3 item)'
        : ` ${errorNumber}${ERROR_NAMES[errorNumber] ? ` (${ERROR_NAMES[errorNumber]})` : ''}`;
    super(GOPHER_ERROR, -1, `the Gopher server reports error${n} for ${where}: ${text === '' ? '(no message)' : text}`);
    this.errorNumber = errorNumber;
    this.contact = contact;
    this.text = text;
  }
}

/** Gopher+ 2.3: the basic error numbers. */
const ERROR_NAMES: Record<number, string> = {
  1: 'item is not available',
  2: 'try again later',
  3: 'item has moved',
};

/** One line of a Gopher menu (RFC 1436 3.8), with the URL that retrieves the item. */
export interface MenuItem {
  /** The item type: the first character of the line ("0" text, "1" menu, "7" search, "i" info ...). */
  type: string;
  /** The user display string. */
  display: string;
  /** The selector, as text (UTF-8; octets that are not UTF-8 show as U+FFFD; the URL keeps them). */
  selector: string;
  /** The host field as sent. */
  host: string;
  /** The port field, or null when it is missing or not a number. */
  port: number | null;
  /** Gopher+: the fifth field ("+" a Gopher+ item, "?" an item with a +ASK form), or null. */
  gopherPlus: string | null;
  /**
   * The URL of the item: a gopher URL (RFC 1738 3.4) built from type, selector, host and port;
   * for "h" items whose selector starts with "URL:", the URL after it; telnet: and tn3270: URLs
   * for types 8 and T; null for info ("i") and error ("3") lines and lines that name no item.
   */
  url: string | null;
  /** Why the line or its URL is not what RFC 1436 describes, or null. */
  problem: string | null;
}

/** One question of a Gopher+ +ASK form ("Ask: What is your name?\tdefault"). */
export interface AskQuestion {
  /** The form item kind as written: Ask, AskP (password), AskL (long text), AskF, Choose, ChooseF, Select, Note. */
  kind: string;
  /** The prompt text. */
  prompt: string;
  /** Ask/AskP/AskL: the default answer (zero or one); Choose/Select: the choices. */
  values: string[];
}

/** The options of the gopher client: the common ones plus the +ASK form filler. */
export interface GopherOpenOptions extends OpenOptions {
  /**
   * Fills in a Gopher+ +ASK form (RFC 1738 3.4.5): called with the questions that take an
   * answer (every kind but Note), returns one answer per question, in order. An AskL answer may
   * hold several lines. Without it, a "?" URL fails with `needs-input` before connecting.
   */
  ask?: (questions: AskQuestion[]) => Promise<string[]>;
}
