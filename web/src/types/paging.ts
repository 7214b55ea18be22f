/** Key-paged lists of the API. */

/** A page of a key-paged list: pass `next` back as `cursor`. */
export interface Page<T> {
  results: T[];
  next?: string | null;
}
