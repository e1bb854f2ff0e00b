// WAIS requests (RFC 1625 2-4, Z39.50-1988; protspec 5): the APDUs this client sends, framed.

import { HEADER_LENGTH, encodeHeader } from './header.js';
import { retrievalQuery, stringToBytes, type InitRequest, type SearchRequest } from './apdu.js';

/** Bytes asked for in one retrieval request (what freeWAIS's waissearch asks for). */
export const CHUNK = 10000;
/** Max-Documents-Retrieved in a seed-word search (waissearch's value). */
export const MAX_DOCUMENTS = 40;

/**
 * The InitRequest this client sends (Z39.50-1988 InitializeRequest; protspec 5.2): version 1,
 * search only, 100000-byte messages and records. Unlike waissearch it sends no ID-Authentication
 * (freeWAIS's client puts the local host and user name there) and names itself, not freeWAIS.
 */
export function initRequest(): Omit<InitRequest, 'pdu'> {
  return {
    protocolVersion: new Uint8Array([0x80]),
    options: new Uint8Array([0x80]),
    preferredMessageSize: 100000,
    maximumRecordSize: 100000,
    idAuthentication: null,
    implementationId: 'locator',
    implementationName: 'locator',
    implementationVersion: '0.1',
    referenceId: null,
    userInformation: null,
  };
}

/**
 * A seed-word search (RFC 1625 4, query type "3"; protspec 5.3): waissearch's fixed fields
 * 30 / 5000 / 30 / 1, an empty Result-Set-Name, the database, Seed-Words, Date-Factor 1,
 * Max-Documents-Retrieved 40.
 */
export function seedSearchRequest(database: string, words: string): Omit<SearchRequest, 'pdu'> {
  return {
    smallSetUpperBound: 30,
    largeSetLowerBound: 5000,
    mediumSetPresentNumber: 30,
    replaceIndicator: 1,
    resultSetName: '',
    databaseNames: database,
    queryType: '3',
    elementSetNames: null,
    referenceId: null,
    query: {
      kind: 'seeds',
      seedWords: words,
      documentIds: [],
      types: [],
      dateFactor: 1,
      maxDocumentsRetrieved: MAX_DOCUMENTS,
    },
  };
}

/**
 * A retrieval of bytes [from, to) of a document (RFC 1625 4, query type "1"): waissearch's fixed
 * fields 10 / 16 / 15 / 1, Result-Set-Name "FOO", Element-Set-Names " " 0x1F "Document Text",
 * Reference-ID "3", and the type-1 query of retrievalQuery().
 */
export function retrievalRequest(
  database: string,
  docId: Uint8Array,
  wtype: string,
  from: number,
  to: number,
): Omit<SearchRequest, 'pdu'> {
  return {
    smallSetUpperBound: 10,
    largeSetLowerBound: 16,
    mediumSetPresentNumber: 15,
    replaceIndicator: 1,
    resultSetName: 'FOO',
    databaseNames: database,
    queryType: '1',
    elementSetNames: ' \x1fDocument Text',
    referenceId: stringToBytes('3'),
    query: retrievalQuery(docId, wtype, from, to),
  };
}

/** A header and an APDU, as one message (the WAIS framing). */
export function message(apdu: Uint8Array): Uint8Array {
  const out = new Uint8Array(HEADER_LENGTH + apdu.length);
  out.set(encodeHeader(apdu.length), 0);
  out.set(apdu, HEADER_LENGTH);
  return out;
}
