-- Operator callbacks now name the movement's id with its reference
-- (server/routes/operator-callbacks.ts), so the pending row is found by the id's index. The
-- indexes of the references go: each new payment, top-up or payout wrote its random UUID into
-- one of them, a random page of the index for every row, and that page was written to the WAL
-- and synced with the batch (about a fifth of a POST /payments batch's pages, docs/benchmarks.md).
-- A version before this one, opening the file, finds a callback's row by scanning the table
-- instead: slower, still right.
DROP INDEX payments_by_operator_ref;
DROP INDEX topups_by_operator_ref;
DROP INDEX payouts_by_operator_ref;
