import { isRouteErrorResponse, type StaticHandlerContext } from 'react-router';
import { HYDRATION_DATA_ID } from '@shared/hydration.js';

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

/**
 * A value as a JSON data block (`<script type="application/json">`): it never runs, so the CSP allows no inline
 * script at all, and one JSON.stringify is all the server pays; the browser parses it before hydrating.
 */
export function jsonDataElement(id: string, value: unknown): string {
  return `<script type="application/json" id="${id}">${scriptSafeJson(value)}</script>`;
}

/** The loader data, for the browser router to hydrate the app's page with. */
export function hydrationDataElement(context: StaticHandlerContext): string {
  return jsonDataElement(HYDRATION_DATA_ID, {
    loaderData: context.loaderData,
    actionData: context.actionData,
    errors: serializeErrors(context.errors),
  });
}
