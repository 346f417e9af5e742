<?php

declare(strict_types=1);

namespace MomoPayments;

/**
 * One page of a list operation, newest first. Iterating the page gives its own items;
 * `autoPagingIterator()` gives every item of the list, fetching the next page (`next_cursor`)
 * while `has_more` is true.
 *
 * @template T of object
 * @implements \IteratorAggregate<int, T>
 */
final class Page implements \IteratorAggregate, \Countable
{
    /**
     * @param list<T> $items
     * @param \Closure(string): Page<T> $fetchAfter Fetches the page after a cursor.
     */
    public function __construct(
        public readonly array $items,
        public readonly bool $hasMore,
        public readonly ?string $nextCursor,
        private readonly \Closure $fetchAfter,
    ) {
    }

    /** @return Page<T>|null The next page, or null on the last one. */
    public function nextPage(): ?self
    {
        return $this->hasMore && $this->nextCursor !== null ? ($this->fetchAfter)($this->nextCursor) : null;
    }

    /**
     * Every item of this page and of the pages after it, fetched one page at a time as the loop
     * reaches them. Stop early with `break`: no page is fetched ahead. A failed page throws the
     * call's `ApiException`.
     *
     * @return \Generator<int, T, void, void>
     */
    public function autoPagingIterator(): \Generator
    {
        for ($page = $this; $page !== null; $page = $page->nextPage()) {
            foreach ($page->items as $item) {
                yield $item;
            }
        }
    }

    /** @return \ArrayIterator<int, T> */
    public function getIterator(): \ArrayIterator
    {
        return new \ArrayIterator($this->items);
    }

    public function count(): int
    {
        return count($this->items);
    }
}
