/**
 * The worker script's first statement: marks on the worker's performance
 * timeline the moment its evaluation begins (after the fetch and the
 * compile), so that `npm run bench -- timeline` can tell the two apart from
 * the evaluation of its modules (`orch:evaluated`, in sw.ts). The worker
 * entry imports it before anything else.
 */

performance.mark('orch:script');
