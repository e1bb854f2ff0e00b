// The generated character table, unchanged since 6f2d499: the one of src/ (a copy would be a
// second generated file for the format check to skip).
export * from '../../../src/core/charclass.js';
