/** The id of the JSON data block that carries the server's loader data to the browser router. */
export const HYDRATION_DATA_ID = 'router-hydration-data';

/** The id of the JSON data block that tells the auth pages' entry which screen the server rendered. */
export const AUTH_SCREEN_ID = 'auth-screen';
