/**
 * The review kinds' storages (access reviews, rules reviews, token and self
 * subject reviews: never stored, each answers one POST), loaded with the
 * first review, never on the path to a first visit's first answer (0119).
 * Each kind's registration reaches its storage through `reviewStorage`
 * (reviews.ts).
 */

export { SubjectAccessReviewStorage } from './authorization/subjectaccessreview/storage';
export { SelfSubjectAccessReviewStorage } from './authorization/selfsubjectaccessreview/storage';
export { LocalSubjectAccessReviewStorage } from './authorization/localsubjectaccessreview/storage';
export { SelfSubjectRulesReviewStorage } from './authorization/selfsubjectrulesreview/storage';
export { TokenReviewStorage } from './authentication/tokenreview/storage';
export { SelfSubjectReviewStorage } from './authentication/selfsubjectreview/storage';
