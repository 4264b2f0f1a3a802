// The API page: Swagger UI over the engine's own description of its HTTP port (GET
// /openapi.json, generated from proto/; docs/web.md). "Try it out" sends Connect JSON calls to
// the server that serves the page.
window.addEventListener("load", () => {
  window.ui = SwaggerUIBundle({
    url: new URL("../openapi.json", window.location.href).href,
    dom_id: "#swagger-ui",
    deepLinking: true,
    tryItOutEnabled: true,
    displayRequestDuration: true,
    defaultModelsExpandDepth: 0,
    validatorUrl: null, // no badge from an online validator: the page calls nothing but the engine
  });
});
