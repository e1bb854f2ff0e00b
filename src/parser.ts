// `locator/core`: the parser with every scheme of the specs, and nothing that reaches the
// network: the core (scanner, record, % codec, errors), the registry with the built-in scheme
// entries, build() and explain(). It runs in browsers as it does in Node.
export * from './core/index.js';
export {
  parse,
  tryParse,
  registerScheme,
  unregisterScheme,
  getScheme,
  listSchemes,
  schemeTable,
  entryOf,
  type SchemeSpec,
  type Explanation,
  type Report,
  type NormalForm,
  type WirePart,
  type SchemeClient,
  type LoginFields,
} from './schemes/registry.js';
export { build, explain } from './operations/build.js';
// fieldsOf(), SchemeFields, BuildFields and the fields type of each scheme of the specs.
export * from './schemes/fields.js';
