// The face of a URL's client (./client-face.ts): its scheme entry's own parts (a scheme registered with
// registerScheme brings `client`, and maybe `probe`), else the built-in face (./builtin-faces.ts). What
// open(), probe(), connect(), the checker, `locator fetch` and the gateway ask of a scheme, they
// ask here, never by the scheme's name.

import type { Url } from '../core/url.js';
import { entryOf } from '../schemes/registry.js';
import type { SchemeSpec } from '../schemes/spec.js';
import type { BuiltinSchemeName } from '../schemes/builtin.js';
import { BUILTIN_FACES } from './builtin-faces.js';
import type { ClientFace, ObjectKind } from './client-face.js';
import type { Meta, OpenOptions, Redirect, Resource } from './types.js';
import type { ProbeOptions, ProbeResult } from './probe/types.js';

const NO_FACE: ClientFace = { kinds: [] };

/** What a registered entry's `client()` resolves to (src/schemes/spec.ts SchemeClient). */
type OwnClient = { open?(url: Url, options: OpenOptions): Promise<Resource | Redirect> };

const OWN = new WeakMap<SchemeSpec, ClientFace>();

/**
 * The face of an entry that brings its own client or probe (RFC 1738 4: a new scheme defines its
 * access algorithm), over the built-in face of its name: the entry's parts come first.
 */
function ownFace(spec: SchemeSpec, base: ClientFace): ClientFace {
  const known = OWN.get(spec);
  if (known !== undefined) return known;
  const client = spec.client as (() => Promise<OwnClient>) | undefined;
  const probe = spec.probe as (() => Promise<Pick<ClientFace, 'probe'> & object>) | undefined;
  const face: ClientFace = {
    ...base,
    ...(client !== undefined
      ? {
          kinds: base.kinds.length > 0 ? base.kinds : ['document'],
          open: async (url: Url, options: OpenOptions) => {
            const c = await client();
            if (typeof c.open !== 'function') return (base.open ?? noOpen)(url, options);
            return c.open(url, options);
          },
        }
      : {}),
    ...(probe !== undefined
      ? {
          probe: async (url: Url, options: ProbeOptions) =>
            (await probe()).probe!(url, options) as Promise<ProbeResult | Redirect>,
          steps: (url: Url) => [`the probe of the ${url.scheme} scheme's entry (registered with it)`],
        }
      : {}),
  };
  OWN.set(spec, face);
  return face;
}

function noOpen(): never {
  throw new TypeError('the scheme entry gives a client without open()');
}

/** The built-in face of a scheme name (lower case, as the record holds it), if it has one. */
function builtinFace(scheme: string): ClientFace | undefined {
  return Object.hasOwn(BUILTIN_FACES, scheme) ? BUILTIN_FACES[scheme as BuiltinSchemeName] : undefined;
}

/** The face of a URL's scheme (RFC 1738 4): its entry's own client and probe first, then the built-in face. */
export function faceOf(u: Url): ClientFace {
  const base = builtinFace(u.scheme) ?? NO_FACE;
  const spec = entryOf(u);
  if (spec !== undefined && (spec.client !== undefined || spec.probe !== undefined)) return ownFace(spec, base);
  return base;
}

/** The WARC-Protocol identifiers of a built-in scheme's face (any case), none for the others. */
export function warcProtocolsOf(scheme: string): string[] {
  return [...(builtinFace(scheme.toLowerCase())?.warcProtocols ?? [])];
}

/** What a URL designates before it is opened (its face's kindOf; else a session for a face that only connects, else a document). */
export function kindOfUrl(u: Url): ObjectKind {
  const face = faceOf(u);
  if (face.kindOf !== undefined) return face.kindOf(u);
  return face.session !== undefined && face.open === undefined ? 'session' : 'document';
}

/** The built-in schemes connect() opens sessions for, in the order of the specs. */
export function interactiveSchemes(): string[] {
  return Object.keys(BUILTIN_FACES).filter((s) => builtinFace(s)?.session !== undefined);
}

/** The built-in schemes whose objects open() retrieves (`locator fetch --help`), in the order of the specs. */
export function retrievableSchemes(): string[] {
  return Object.keys(BUILTIN_FACES).filter((s) => {
    const face = builtinFace(s);
    return face?.open !== undefined && face.retrieves !== false;
  });
}

/**
 * What the gateway shows for the built-in schemes (its home page): each face's `gatewayShows`,
 * the schemes with the same words on one line, in the order of the specs.
 */
export function gatewaySchemes(): Array<{ schemes: string[]; shows: string }> {
  const lines = new Map<string, string[]>();
  for (const s of Object.keys(BUILTIN_FACES)) {
    const shows = builtinFace(s)?.gatewayShows;
    if (shows !== undefined) lines.set(shows, [...(lines.get(shows) ?? []), s]);
  }
  return [...lines].map(([shows, schemes]) => ({ schemes, shows }));
}

/** The line formats the clients write, whatever the scheme (docs/gateway.md), and how each is shown. */
const BY_TYPE: Readonly<Record<string, { kind: ObjectKind; view: string }>> = {
  'text/x-locator-news-overview': { kind: 'listing', view: 'news-overview' },
  'text/x-locator-news-groups': { kind: 'listing', view: 'news-groups' },
  'text/x-locator-wais-headlines': { kind: 'search', view: 'wais-headlines' },
  'text/uri-list': { kind: 'listing', view: 'uri-list' },
  'message/rfc822': { kind: 'document', view: 'article' },
  'message/news': { kind: 'document', view: 'article' },
};

/**
 * Sets `meta.kind` and `meta.view` of an object opened from `u` (RFC 1738 3): its face's
 * objectOf, else by its content type (the line formats above; anything else a document, shown
 * as text or downloaded).
 */
export function classify(u: Url, meta: Meta): void {
  const own = faceOf(u).objectOf?.(u, meta) ?? null;
  const t = (meta.contentType ?? '').toLowerCase().replace(/;.*$/, '').trim();
  const o = own ?? (Object.hasOwn(BY_TYPE, t) ? BY_TYPE[t] : { kind: 'document' as const, view: null });
  meta.kind = o.kind;
  meta.view = o.view;
}
