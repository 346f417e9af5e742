"""Auto-paging iterators over cursor lists."""

from __future__ import annotations

import unittest

from momo_payments import NotFoundError, PaymentsClient

from .local_server import Answer, LocalServer, failure, success


def page(ids: list[str], next_cursor: str | None) -> Answer:
    items = [{"service_id": i, "name": i} for i in ids]
    return success({"items": items, "has_more": next_cursor is not None, "next_cursor": next_cursor})


def client_of(url: str) -> PaymentsClient:
    return PaymentsClient(api_key="sk_test_abc", api_user="u", base_url=url, sandbox=True)


class PagingTest(unittest.TestCase):
    def test_every_item_of_every_page_in_order(self) -> None:
        pages = [page(["s5", "s4"], "c1"), page(["s3", "s2"], "c2"), page(["s1"], None)]
        with LocalServer(*pages) as server:
            ids = [s["service_id"] for s in client_of(server.url).iter_services(limit=2, status="active")]
        self.assertEqual(ids, ["s5", "s4", "s3", "s2", "s1"])
        self.assertEqual([r.query.get("cursor") for r in server.received], [None, ["c1"], ["c2"]])
        for request in server.received:
            self.assertEqual(request.query["limit"], ["2"])
            self.assertEqual(request.query["status"], ["active"])
            self.assertEqual(request.query["test"], ["true"])

    def test_breaking_early_fetches_no_more_pages(self) -> None:
        with LocalServer(page(["s5", "s4"], "c1"), page(["s3"], None)) as server:
            for service in client_of(server.url).iter_services(limit=2):
                if service["service_id"] == "s4":
                    break
        self.assertEqual(len(server.received), 1)

    def test_an_empty_list(self) -> None:
        with LocalServer(page([], None)) as server:
            self.assertEqual(list(client_of(server.url).iter_services()), [])

    def test_path_parameters_are_kept_on_every_page(self) -> None:
        deliveries = [
            success({"items": [{"id": "d2"}], "has_more": True, "next_cursor": "c1"}),
            success({"items": [{"id": "d1"}], "has_more": False, "next_cursor": None}),
        ]
        with LocalServer(*deliveries) as server:
            ids = [d["id"] for d in client_of(server.url).iter_event_deliveries("evt_1", limit=1)]
        self.assertEqual(ids, ["d2", "d1"])
        self.assertEqual({r.path for r in server.received}, {"/v1/events/evt_1/deliveries"})

    def test_a_failed_page_raises_after_the_items_before_it(self) -> None:
        with LocalServer(page(["s2"], "c1"), failure(404, "resource_not_found", request_id="req_page")) as server:
            seen: list[str] = []
            with self.assertRaises(NotFoundError) as caught:
                for service in client_of(server.url).iter_services():
                    seen.append(service["service_id"])
        self.assertEqual(seen, ["s2"])
        self.assertEqual(caught.exception.request_id, "req_page")


if __name__ == "__main__":
    unittest.main()
