// The schemes of RFC 1738 section 3 and of its drafts, registered like any other scheme
// (RFC 1738 section 4). Each scheme's own rules live in its module.

import { registerScheme } from './registry.js';
import { ftp } from './ftp.js';
import { http, https } from './http.js';
import { gopher } from './gopher.js';
import { mailto } from './mailto.js';
import { news } from './news.js';
import { nntp } from './nntp.js';
import { telnet, rlogin, tn3270 } from './telnet.js';
import { wais } from './wais.js';
import { file } from './file.js';
import { prospero } from './prospero.js';
import { mid, cid } from './mid.js';
import { afs } from './afs.js';

for (const spec of [ftp, http, https, gopher, mailto, news, nntp, telnet, rlogin, tn3270, wais, file, prospero, mid, cid, afs]) registerScheme(spec);
