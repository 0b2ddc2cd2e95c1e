/** `base` + `/suffix`, without doubling the slash. */
export const joinUrl = (base: string, suffix: string): string => `${base.replace(/\/+$/, '')}/${suffix.replace(/^\/+/, '')}`;

/** The path of a URL, trailing slashes dropped (`/` stays `''`). */
export const urlPath = (url: string): string => new URL(url).pathname.replace(/\/+$/, '');
