// The config file of `locator check` (locator-check.json): a JSON object whose keys are the long
// names of the command's options and whose values are what the command line would give
// (`{"exclude": ["^https?://localhost"], "accept": ["http:403"], "timeout": 5000}`). An option
// given on the command line wins over the file's value (a repeatable one is replaced, not added to).

/** What the config reader needs to know of an option: its type and whether it repeats. */
export interface ConfigOption {
  type: 'string' | 'boolean';
  multiple?: boolean;
}

export type OptionValues = Record<string, string | boolean | string[] | boolean[] | undefined>;

/**
 * `values` with each option of the config `text` that `values` does not give. Throws a
 * SyntaxError naming the key for text that is not a JSON object, an unknown key, or a value of
 * the wrong type; `refused` keys (the config file's own option, --help) are unknown.
 */
export function withConfig(
  text: string,
  table: Readonly<Record<string, ConfigOption>>,
  values: OptionValues,
  refused: readonly string[] = [],
): OptionValues {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new SyntaxError(`not JSON: ${(e as Error).message}`);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new SyntaxError('not a JSON object');
  const out: OptionValues = { ...values };
  for (const [key, v] of Object.entries(data as Record<string, unknown>)) {
    const spec = Object.hasOwn(table, key) && !refused.includes(key) ? table[key] : undefined;
    if (spec === undefined) throw new SyntaxError(`${JSON.stringify(key)} is no option of locator check`);
    const one = (x: unknown): string | boolean => {
      if (spec.type === 'boolean') {
        if (typeof x !== 'boolean') throw new SyntaxError(`${JSON.stringify(key)} takes true or false`);
        return x;
      }
      if (typeof x === 'number' && Number.isFinite(x)) return String(x);
      if (typeof x !== 'string') throw new SyntaxError(`${JSON.stringify(key)} takes a string`);
      return x;
    };
    const value = spec.multiple === true ? (Array.isArray(v) ? v : [v]).map(one) : one(v);
    if (out[key] === undefined) out[key] = value as string | boolean | string[];
  }
  return out;
}
