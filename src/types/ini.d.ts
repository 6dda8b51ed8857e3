/** The one function the harness uses of `ini`, the parser npm reads its `.npmrc` files with. */
declare module "ini" {
  /** npm's `ini.parse`: sections become nested objects, `key[]` arrays, quoted values unquoted. */
  export function decode(text: string): Record<string, unknown>;
}
