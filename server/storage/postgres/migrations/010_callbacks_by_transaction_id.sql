-- Operator callbacks name the movement's id with its reference: the indexes of the references go.
-- PostgreSQL translation of sqlite/migrations/010_callbacks_by_transaction_id.sql.
DROP INDEX payments_by_operator_ref;
DROP INDEX topups_by_operator_ref;
DROP INDEX payouts_by_operator_ref;
