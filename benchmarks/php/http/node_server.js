// The server of server.php on Node's http module: keep-alive HTTP/1.1, the
// same fixed small response. Runs until killed.
//
//   node node_server.js PORT
'use strict';
const http = require('http');

const port = Number(process.argv[2] || 8080);
const body = 'Hello, World!';
const server = http.createServer((req, res) => {
  res.sendDate = false;
  res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': body.length });
  res.end(body);
});
server.keepAliveTimeout = 60000;
server.listen({ port, host: '127.0.0.1', backlog: 4096 });
