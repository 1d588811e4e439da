import { isRouteErrorResponse, type StaticHandlerContext } from 'react-router';

const UNSAFE_IN_SCRIPT: Record<string, string> = {
  '&': '\\u0026',
  '<': '\\u003c',
  '>': '\\u003e',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/** JSON made safe to place inside a <script>: no `</script>`, no HTML entities, no JS line terminators. */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/[&<>\u2028\u2029]/g, (ch) => UNSAFE_IN_SCRIPT[ch]!);
}

/** Errors in the shape the browser router revives (RouteErrorResponse and Error keep their type). */
function serializeErrors(errors: StaticHandlerContext['errors']) {
  if (!errors) return null;
  return Object.fromEntries(
    Object.entries(errors).map(([routeId, error]) => {
      if (isRouteErrorResponse(error)) return [routeId, { ...error, __type: 'RouteErrorResponse' }];
      if (error instanceof Error) return [routeId, { message: error.message, __type: 'Error' }];
      return [routeId, error];
    }),
  );
}

/** The script that hands the server's loader data to createBrowserRouter. */
export function hydrationScript(context: StaticHandlerContext): string {
  const data = { loaderData: context.loaderData, actionData: context.actionData, errors: serializeErrors(context.errors) };
  return `window.__staticRouterHydrationData = JSON.parse(${scriptSafeJson(JSON.stringify(data))});`;
}
