// Starts Swagger UI (loaded by the page from our own docs-assets route) on our OpenAPI document.
const root = document.getElementById("swagger-ui");
window.ui = window.SwaggerUIBundle({
  url: root.dataset.spec,
  domNode: root,
  deepLinking: true,
  validatorUrl: null, // no calls to an outside validator: the page works offline
  presets: [window.SwaggerUIBundle.presets.apis, window.SwaggerUIStandalonePreset],
  layout: "BaseLayout",
});
