/** The product's name, as the header, the drawer and the sign-in screens show it. */
export const PRODUCT_TITLE = 'Pacer CRM';
