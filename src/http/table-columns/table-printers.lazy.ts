/**
 * The built-in kinds' table printers (columns and cells as the real server prints them): loaded by the request
 * pipeline when a request asks for a Table, never on the path to the worker's first response (decision 0070).
 */

export { printerFor } from './index';
