/**
 * "Does this person administer the place this thread belongs to?": asked by the runs, after
 * the acknowledgement, only for what needs it (a change to a place's defaults). A platform that
 * learns it from its own API (Linear's workspace admins) answers here; one whose ingress
 * already marked the person (`Trigger.actor.admin`) needs no answer. When the platform cannot
 * tell, the answer is no.
 */
export interface PlaceAdmins {
  isAdmin(threadKey: string, personId: string): Promise<boolean>;
}
