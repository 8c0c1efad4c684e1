// autocannon setupClient (a file, as autocannon's worker mode needs): each connection gets its own tools
// session, in the X-Session-ID header and the body's sessionId, so every connection stands for one visitor.
'use strict';
const { randomBytes } = require('node:crypto');

let n = 0;
module.exports = function setupClient(client) {
  n += 1;
  const session = `sess_${Date.now()}_${randomBytes(6).toString('hex')}c${n}`;
  client.setHeadersAndBody(
    { 'content-type': 'application/json', 'x-session-id': session },
    JSON.stringify({ sessionId: session, options: { genre: 'mystery', storyType: 'novel', intensity: 'dramatic' } }),
  );
};
