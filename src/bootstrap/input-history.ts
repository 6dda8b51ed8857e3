/**
 * The conversation's input history, kept across sessions in the state directory: the CLI reaches
 * the state adapter only through bootstrap.
 */
export { InputHistoryFile, inputHistoryPath } from "../adapters/state/index.js";
