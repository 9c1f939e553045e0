/**
 * The API's description and reference page, outside the route table and without authentication:
 * GET /api/v4/openapi.json (the generated OpenAPI document) and /api/v4/docs (Swagger UI, served
 * from the installed swagger-ui-dist package under /api/v4/docs/assets/, no CDN).
 */
import { readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { dirname, join } from "node:path";

export const OPENAPI_PATH = "/api/v4/openapi.json";
export const DOCS_PATH = "/api/v4/docs";

/** The only files served from swagger-ui-dist, with their media types. */
const ASSETS: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "swagger-ui-standalone-preset.js": "text/javascript; charset=utf-8",
  "favicon-32x32.png": "image/png",
  "favicon-16x16.png": "image/png",
};

const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Collab API reference</title>
  <link rel="stylesheet" href="${DOCS_PATH}/assets/swagger-ui.css">
  <link rel="icon" type="image/png" href="${DOCS_PATH}/assets/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${DOCS_PATH}/assets/swagger-ui-bundle.js"></script>
  <script src="${DOCS_PATH}/assets/init.js"></script>
</body>
</html>
`;

const INIT_JS = `window.ui = SwaggerUIBundle({ url: ${JSON.stringify(OPENAPI_PATH)}, dom_id: "#swagger-ui", deepLinking: true, docExpansion: "none", validatorUrl: null });\n`;

/** Serves the document, the page and its assets; false when the request is for something else. */
export function createApiDocs(document: object) {
  const json = JSON.stringify(document);
  let assetsDir: string | undefined;
  const cache = new Map<string, Buffer>();
  const asset = (name: string) => {
    assetsDir ??= dirname(require.resolve("swagger-ui-dist/package.json"));
    let data = cache.get(name);
    if (!data) cache.set(name, (data = readFileSync(join(assetsDir, name))));
    return data;
  };
  const send = (req: IncomingMessage, res: ServerResponse, type: string, body: string | Buffer, cacheable = false) => {
    res.statusCode = 200;
    res.setHeader("Content-Type", type);
    res.setHeader("Content-Length", String(Buffer.byteLength(body)));
    if (cacheable) res.setHeader("Cache-Control", "public, max-age=3600");
    res.end(req.method === "HEAD" ? undefined : body);
  };
  return function serveApiDocs(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== "GET" && req.method !== "HEAD") return false;
    const path = (req.url ?? "/").split("?")[0];
    if (path === OPENAPI_PATH) send(req, res, "application/json", json);
    else if (path === DOCS_PATH || path === `${DOCS_PATH}/`) send(req, res, "text/html; charset=utf-8", DOCS_HTML);
    else if (path === `${DOCS_PATH}/assets/init.js`) send(req, res, "text/javascript; charset=utf-8", INIT_JS);
    else if (path.startsWith(`${DOCS_PATH}/assets/`) && Object.hasOwn(ASSETS, path.slice(DOCS_PATH.length + 8))) {
      const name = path.slice(DOCS_PATH.length + 8);
      send(req, res, ASSETS[name], asset(name), true);
    } else return false;
    return true;
  };
}
