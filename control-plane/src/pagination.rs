//! Laravel-style pages, the shape the spec gives the redirect list and the form history
//! (`{data, total, from, to, prev_page_url, next_page_url}`, plus Laravel's `per_page`,
//! `current_page` and `last_page`).
//!
//! `from` and `to` are the 1-based positions of the first and last item on the page (null on an
//! empty page); the page URLs are relative and repeat the request's other query parameters.

use serde::Serialize;
use utoipa::ToSchema;

use crate::error::{ApiError, ErrorCode, Result};

/// Page size when the call names none (spec 1 §9: redirect list page size 100).
pub const DEFAULT_LIMIT: i64 = 100;
pub const MAX_LIMIT: i64 = 1000;

/// The `page` and `limit` of a list call, checked. `limit=-1` asks for everything on one page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageRequest {
    pub page: i64,
    /// None: all items.
    pub limit: Option<i64>,
}

impl PageRequest {
    /// Checks the query values; wrong ones answer 400 with what is accepted.
    pub fn parse(page: Option<i64>, limit: Option<i64>) -> Result<PageRequest> {
        let page = page.unwrap_or(1);
        if page < 1 {
            return Err(ApiError::bad_request(
                ErrorCode::PageOutOfRange,
                "page must be 1 or more",
            ));
        }
        let limit = match limit.unwrap_or(DEFAULT_LIMIT) {
            -1 => None,
            l if (1..=MAX_LIMIT).contains(&l) => Some(l),
            _ => {
                return Err(ApiError::bad_request(
                    ErrorCode::LimitOutOfRange,
                    format!("limit must be between 1 and {MAX_LIMIT}, or -1 for all"),
                )
                .param("max", MAX_LIMIT));
            }
        };
        Ok(PageRequest { page, limit })
    }

    /// How many items come before this page. With no limit every page after the first is empty.
    pub fn offset(&self) -> i64 {
        match self.limit {
            Some(l) => (self.page - 1).saturating_mul(l),
            None if self.page == 1 => 0,
            None => i64::MAX,
        }
    }
}

/// One page of a list.
#[derive(Debug, Serialize, ToSchema)]
pub struct Paginated<T> {
    pub data: Vec<T>,
    /// Items matching the call, on every page.
    pub total: i64,
    /// The page size; -1 when everything is on one page.
    pub per_page: i64,
    pub current_page: i64,
    pub last_page: i64,
    /// Position (from 1) of the first item on this page; null when the page is empty.
    pub from: Option<i64>,
    /// Position of the last item on this page; null when the page is empty.
    pub to: Option<i64>,
    /// This call's URL for the previous page; null on the first page.
    pub prev_page_url: Option<String>,
    /// This call's URL for the next page; null on the last page.
    pub next_page_url: Option<String>,
}

impl<T> Paginated<T> {
    /// Wraps a page of `data` out of `total` items. `path` and `query` (the request's other
    /// parameters, in order) build the neighbouring pages' URLs.
    pub fn new(
        data: Vec<T>,
        total: i64,
        req: PageRequest,
        path: &str,
        query: &[(&str, String)],
    ) -> Paginated<T> {
        let last_page = match req.limit {
            Some(l) => ((total + l - 1) / l).max(1),
            None => 1,
        };
        let (from, to) = if data.is_empty() {
            (None, None)
        } else {
            let first = req.offset() + 1;
            (Some(first), Some(first + data.len() as i64 - 1))
        };
        let url = |page: i64| {
            let mut s = url::form_urlencoded::Serializer::new(String::new());
            for (k, v) in query {
                s.append_pair(k, v);
            }
            s.append_pair("page", &page.to_string());
            format!("{path}?{}", s.finish())
        };
        Paginated {
            total,
            per_page: req.limit.unwrap_or(-1),
            current_page: req.page,
            last_page,
            from,
            to,
            prev_page_url: (req.page > 1).then(|| url(req.page - 1)),
            next_page_url: (req.page < last_page).then(|| url(req.page + 1)),
            data,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(page: i64, limit: Option<i64>) -> PageRequest {
        PageRequest { page, limit }
    }

    #[test]
    fn page_and_limit_are_checked() {
        assert_eq!(PageRequest::parse(None, None).unwrap(), page(1, Some(100)));
        assert_eq!(
            PageRequest::parse(Some(3), Some(-1)).unwrap(),
            page(3, None)
        );
        for (p, l) in [
            (Some(0), None),
            (None, Some(0)),
            (None, Some(-2)),
            (None, Some(1001)),
        ] {
            assert!(PageRequest::parse(p, l).is_err(), "{p:?} {l:?}");
        }
    }

    #[test]
    fn positions_and_urls_follow_laravel() {
        let query = [("order", "from".to_string()), ("term", "a b&c".to_string())];
        let p = Paginated::new(vec![(); 10], 25, page(2, Some(10)), "/api/x", &query);
        assert_eq!((p.from, p.to, p.last_page), (Some(11), Some(20), 3));
        assert_eq!(
            p.prev_page_url.as_deref(),
            Some("/api/x?order=from&term=a+b%26c&page=1")
        );
        assert_eq!(
            p.next_page_url.as_deref(),
            Some("/api/x?order=from&term=a+b%26c&page=3")
        );

        let last = Paginated::new(vec![(); 5], 25, page(3, Some(10)), "/api/x", &[]);
        assert_eq!((last.from, last.to), (Some(21), Some(25)));
        assert_eq!(last.next_page_url, None);

        let empty = Paginated::<()>::new(vec![], 0, page(1, Some(10)), "/api/x", &[]);
        assert_eq!((empty.from, empty.to, empty.last_page), (None, None, 1));
        assert_eq!((empty.prev_page_url, empty.next_page_url), (None, None));

        let all = Paginated::new(vec![(); 7], 7, page(1, None), "/api/x", &[]);
        assert_eq!((all.from, all.to, all.per_page), (Some(1), Some(7), -1));
        assert_eq!(all.next_page_url, None);
    }
}
