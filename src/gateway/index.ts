// `locator/gateway`: the gateway of RFC 1738 section 4 (`locator serve`), for node. The package
// root stays browser-safe: nothing here is reachable from src/index.ts.

export {
  startGateway,
  statusFor,
  GATEWAY_REFUSED,
  GATEWAY_BUSY,
  GATEWAY_MISDIRECTED,
  type Gateway,
  type GatewayOptions,
} from './server.js';
export { esc, markup, Html } from './html.js';
export type { ReplaySource, ReplayedObject } from './replay.js';
