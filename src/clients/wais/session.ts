// A WAIS session (RFC 1625 2, 3): one message sent, its one answer read, the diagnostics in it.

import type { Url } from '../../core/url.js';
import { LocatorError } from '../../core/errors.js';
import { Connection } from '../connection.js';
import { CONNECTION_CLOSED, PROTOCOL_ERROR, type OpenOptions } from '../types.js';
import { HEADER_LENGTH, decodeHeader } from './header.js';
import {
  decodeInitResponse,
  decodeSearchResponse,
  encodeInitRequest,
  encodeSearchRequest,
  type SearchRequest,
  type SearchResponse,
} from './apdu.js';
import { WaisError } from './types.js';
import { concatBytes } from '../framing/bytes.js';
import { initRequest, message } from './request.js';

/** The largest APDU accepted from a server (a 10000-byte piece is about 10200 bytes). */
export const MAX_APDU = 16 * 1024 * 1024;

/** One connection to a WAIS server: sends a message, reads the one answer. */
export class Session {
  readonly conn: Connection;
  #rest: Uint8Array = new Uint8Array(0);
  constructor(conn: Connection) {
    this.conn = conn;
  }

  async #readExactly(n: number, what: string): Promise<Uint8Array> {
    const parts: Uint8Array[] = [];
    let have = 0;
    if (this.#rest.length > 0) {
      const take = this.#rest.subarray(0, n);
      parts.push(take);
      have = take.length;
      this.#rest = this.#rest.subarray(take.length);
    }
    while (have < n) {
      const chunk = await this.conn.read();
      if (chunk === null) {
        throw new LocatorError(
          CONNECTION_CLOSED,
          -1,
          `the WAIS server closed the connection ${have} bytes into ${what} of ${n} bytes`,
        );
      }
      const take = chunk.subarray(0, n - have);
      parts.push(take);
      have += take.length;
      if (take.length < chunk.length) this.#rest = chunk.subarray(take.length);
    }
    return concatBytes(parts);
  }

  /** Sends one APDU, reads the answer's header and APDU. */
  async exchange(apdu: Uint8Array, shown: string): Promise<Uint8Array> {
    await this.conn.write(message(apdu), shown);
    const header = decodeHeader(await this.#readExactly(HEADER_LENGTH, 'a WAIS header'));
    if (header.length > MAX_APDU) {
      throw new LocatorError(
        PROTOCOL_ERROR,
        -1,
        `the WAIS server announces an APDU of ${header.length} bytes, more than the ${MAX_APDU} accepted`,
      );
    }
    const apduIn = await this.#readExactly(header.length, 'an APDU');
    this.conn.note('receive', `<${header.length}-byte APDU, type ${apduIn[2] ?? '?'}>`);
    return apduIn;
  }

  async init(): Promise<void> {
    const r = decodeInitResponse(await this.exchange(encodeInitRequest(initRequest()), 'InitRequest'));
    if (!r.result) throw new LocatorError(PROTOCOL_ERROR, -1, 'the WAIS server refused the InitRequest');
  }

  async search(req: Omit<SearchRequest, 'pdu'>, shown: string): Promise<SearchResponse> {
    return decodeSearchResponse(await this.exchange(encodeSearchRequest(req), shown));
  }
}

export async function connect(url: Url, options: OpenOptions): Promise<Session> {
  const onTranscript = typeof options.transcript === 'function' ? options.transcript : undefined;
  const conn = await Connection.connect(url.host ?? '', url.port ?? 210, {
    signal: options.signal,
    timeout: options.timeout,
    policy: options.policy,
    onTranscript,
  });
  return new Session(conn);
}

export function throwDiagnostics(r: SearchResponse, where: string): void {
  if (r.diagnostics.length > 0 && r.headers.length === 0 && r.texts.length === 0) {
    const d = r.diagnostics[0];
    throw new WaisError(d.code, d.text, where);
  }
}

/**
 * The diagnostic records beside the records of an answer (RFC 1625 3: a SearchResponse may
 * carry both; freeWAIS-sf answers the search `?` with its help records and `S1 query syntax
 * error`), for meta.diagnostics; each also goes to the transcript. Empty when there are none.
 */
export function partialDiagnostics(s: Session, r: SearchResponse): Array<{ code: string; text: string }> {
  return r.diagnostics.map((d) => {
    s.conn.note('info', `the server's diagnostic beside its answer: ${d.code} ${d.text}`);
    return { code: d.code, text: d.text };
  });
}

/** The diagnostics of an answer as a clause of a probe's reason ("" when none). */
export function diagnosticsClause(r: SearchResponse): string {
  return r.diagnostics.map((d) => `; the server's diagnostic beside it: ${d.code} ${d.text}`.trimEnd()).join('');
}
