/** What 202s, polls of running jobs and a 504 naming a job suggest to clients as a polling pace, in seconds. */
export const RETRY_AFTER_SECONDS = '1';
