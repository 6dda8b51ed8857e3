/** The person's home directory, decided by one rule (home-directory.ts). */
export { homeDirectory } from "./home-directory.js";
