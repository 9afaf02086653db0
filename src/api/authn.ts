/** The identity of a request, as authentication establishes it. */
export interface UserInfo {
  username: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}
