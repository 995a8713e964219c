/**
 * The buttons of a run's check run, by the identifier GitHub sends back in a
 * `requested_action` webhook (at most 20 characters): written by render/, read by ingress/.
 */
export const CHECK_ACTIONS = { stop: 'stop', cancel: 'cancel' } as const;
