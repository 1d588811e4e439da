/** Text made safe inside a double-quoted HTML attribute. */
export const escapeAttr = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
