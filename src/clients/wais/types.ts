// What the WAIS client adds to the common client types: its error code and the error class that
// carries a server's diagnostic record. No networking here.

import { LocatorError, defineCode } from '../../core/errors.js';

/** A WAIS server answered with a diagnostic record (RFC 1625 3; Z39.50-1988 tag 28). */
export const WAIS_DIAGNOSTIC = defineCode(
  'wais-diagnostic',
  'error',
  'RFC 1625 3',
  'the WAIS server answered with a diagnostic record',
  'protocol',
);

/**
 * A WAIS server's diagnostic record as a typed LocatorError (code `wais-diagnostic`): an unknown
 * database, a query the server cannot parse, a document it cannot find.
 */
export class WaisError extends LocatorError {
  /** The two-character diagnostic code (freeWAIS: "S1" search failed, "D2" and so on). */
  readonly diagnosticCode: string;
  /** The server's additional information. */
  readonly text: string;

  constructor(diagnosticCode: string, text: string, where: string) {
    super(
      WAIS_DIAGNOSTIC,
      -1,
      `the WAIS server reports ${diagnosticCode} for ${where}: ${text === '' ? '(no message)' : text}`,
    );
    this.diagnosticCode = diagnosticCode;
    this.text = text;
  }
}
