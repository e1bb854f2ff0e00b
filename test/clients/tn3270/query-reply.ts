// A reader of the inbound Query Reply a 3270 terminal sends to Read Partition Query (IBM
// GA23-0059, "Query Reply Structured Fields": the AID 0x88, then one structured field per reply,
// each "length (2 octets, itself included), 0x81, QCODE, parameters"), written apart from the
// client's encoder so that a test compares the client's bytes with the reference's layout.

/** One Query Reply structured field: its QCODE and its parameters (the octets after the QCODE). */
export interface QueryReplyField {
  length: number;
  qcode: number;
  params: Uint8Array;
}

/**
 * The fields of an inbound Query Reply record (GA23-0059: AID 0x88 and structured fields). Throws
 * on anything else: another AID, a length that does not fit, a field that is not a Query Reply.
 */
export function queryReplyFields(record: Uint8Array): QueryReplyField[] {
  if (record[0] !== 0x88) throw new Error(`not a structured-field AID: 0x${record[0]?.toString(16)}`);
  const out: QueryReplyField[] = [];
  let i = 1;
  while (i < record.length) {
    if (i + 4 > record.length) throw new Error(`a structured field header cut at ${i}`);
    const length = (record[i] << 8) | record[i + 1];
    if (length < 4 || i + length > record.length) throw new Error(`a structured field of length ${length} at ${i}`);
    if (record[i + 2] !== 0x81) throw new Error(`not a Query Reply (0x81) at ${i + 2}`);
    out.push({ length, qcode: record[i + 3], params: record.subarray(i + 4, i + length) });
    i += length;
  }
  return out;
}

/** Query Reply (Usable Area), QCODE 0x81, its fixed part (octets 4 to 22 of the field). */
export interface UsableArea {
  /** Flags1, bits 4-7: the addressing modes (1: 12/14-bit addressing). */
  addressing: number;
  /** Flags1, bits 0-3 (printer and cell-position flags): none set by a display. */
  flags1High: number;
  /** Flags2 (variable cells, non-matrix character, units of the cell: none set by a 3278). */
  flags2: number;
  /** W, H: the width and height of the usable area, in cells (columns, rows). */
  width: number;
  height: number;
  /** UNITS: 0 inches, 1 millimetres. */
  units: number;
  /** Xr, Yr: the distance between points, as numerator / denominator, in UNITS. */
  xr: [number, number];
  yr: [number, number];
  /** AW, AH: the points in a cell, across and down. */
  aw: number;
  ah: number;
  /** BUFSZ: the character buffer, in octets. */
  bufsz: number;
}

/** The Usable Area reply's fields, read by offset as GA23-0059 lays them out. */
export function usableArea(field: QueryReplyField): UsableArea {
  if (field.qcode !== 0x81) throw new Error(`not the Usable Area QCODE: 0x${field.qcode.toString(16)}`);
  const p = field.params;
  if (p.length < 19) throw new Error(`a Usable Area of ${p.length} parameter octets`);
  const u16 = (k: number) => (p[k] << 8) | p[k + 1];
  return {
    addressing: p[0] & 0x0f,
    flags1High: p[0] >> 4,
    flags2: p[1],
    width: u16(2),
    height: u16(4),
    units: p[6],
    xr: [u16(7), u16(9)],
    yr: [u16(11), u16(13)],
    aw: p[15],
    ah: p[16],
    bufsz: u16(17),
  };
}

/** The 3278 models of RFC 1576's terminal types (IBM-3278-2 to -5): rows and columns. */
export const MODELS: ReadonlyArray<[string, number, number]> = [
  ['IBM-3278-2', 24, 80],
  ['IBM-3278-3', 32, 80],
  ['IBM-3278-4', 43, 80],
  ['IBM-3278-5', 27, 132],
];
