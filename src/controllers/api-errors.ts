/**
 * The API error checks moved to the client layer (`client/api-errors.ts`),
 * as client-go's `apierrors`; controllers keep importing them here.
 */

export * from '../client/api-errors';
