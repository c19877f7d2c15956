// Starts Swagger UI on the control plane's own OpenAPI document (see /api/docs).
window.ui = SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#ui', deepLinking: true });
