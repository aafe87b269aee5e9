// Preloaded into the firebase CLI by the launcher (`node --require`, scripts/lib/suite.ts). Its
// emulators' HTTP servers (Hosting on 5000, Functions, Auth) close an idle keep-alive connection
// after Node's default 5 s. A client that sends its next request on that connection as it closes
// gets ECONNRESET: a browser resends such a request, Node's clients (Playwright's `request`, the
// tests' fetch) do not (seen: POST /api/auth/admin through Hosting, stop 51's rounds). Idle
// connections are kept for 65 s, so the tests' next request comes long before the close.
'use strict';
const http = require('node:http');

const KEEP_ALIVE_MS = 65_000;
const listen = http.Server.prototype.listen;
http.Server.prototype.listen = function (...args) {
  if (this.keepAliveTimeout > 0 && this.keepAliveTimeout < KEEP_ALIVE_MS) {
    this.keepAliveTimeout = KEEP_ALIVE_MS;
    // Node's headersTimeout must outlast keep-alive, or a request on a reused connection may be cut.
    this.headersTimeout = Math.max(this.headersTimeout, KEEP_ALIVE_MS + 1_000);
  }
  return listen.apply(this, args);
};
