/**
 * One kind of request whose answers are used only while no later request of the same kind has been made. When
 * what a page asks changes quickly (a price typed digit by digit, a setting switched twice), the answers can come
 * back out of order; the page must show the answer to the question it shows as asked, not whichever came last.
 */
export function latestOnly(): <T>(
  request: Promise<T>,
  use: (value: T) => void,
  fail?: (error: unknown) => void,
) => Promise<void> {
  let made = 0;
  return (request, use, fail) => {
    const number = ++made;
    return request.then(
      (value) => {
        if (number === made) use(value);
      },
      (error) => {
        if (number === made) fail?.(error);
      },
    );
  };
}
