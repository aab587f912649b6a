// Starts Swagger UI (loaded by the page from our own docs-assets route) on our OpenAPI document.
// The bundle (a classic script the page loads first) puts Swagger UI on window.
const swagger = /** @type {Window & {ui?: unknown, SwaggerUIBundle?: any, SwaggerUIStandalonePreset?: unknown}} */ (window);
const root = /** @type {HTMLElement} */ (document.getElementById("swagger-ui"));  // api_docs.html has it
swagger.ui = swagger.SwaggerUIBundle({
  url: root.dataset.spec,
  domNode: root,
  deepLinking: true,
  validatorUrl: null, // no calls to an outside validator: the page works offline
  presets: [swagger.SwaggerUIBundle.presets.apis, swagger.SwaggerUIStandalonePreset],
  layout: "BaseLayout",
});
