/**
 * What the state export and import take from Dexie's export addon, loaded
 * on first use (see machinery/lazy-module.ts): most sessions never export.
 */

export { exportDB, importInto } from 'dexie-export-import';
