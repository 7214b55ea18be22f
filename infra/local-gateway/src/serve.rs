//! The gateway's HTTP server: axum's router on hyper, one task per
//! connection, with a request-head buffer large enough that an over-long
//! address reaches the router and is answered in the API's error shape
//! (`shared::api::limits`: 414 `uri_too_long`) instead of hyper's empty 431.

use axum::extract::ConnectInfo;
use axum::Router;
use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::net::SocketAddr;
use tokio::net::TcpListener;
use tower::ServiceExt;

/// The largest request head (request line and headers) read before the
/// router decides: a 1 MB query string must reach it to be refused as JSON.
pub const MAX_HEAD_BYTES: usize = 2 << 20;

/// Serves `router` on `listener` until `shutdown` completes; each request
/// carries the peer address (`ConnectInfo`, for the per-address limits).
pub async fn serve(listener: TcpListener, router: Router, shutdown: impl Future<Output = ()>) -> std::io::Result<()> {
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(conn) => conn,
                Err(e) => {
                    eprintln!("WARN accept failed: {e}");
                    continue;
                }
            },
            () = &mut shutdown => return Ok(()),
        };
        let app = router.clone().map_request(move |mut req: hyper::Request<hyper::body::Incoming>| {
            req.extensions_mut().insert(ConnectInfo::<SocketAddr>(peer));
            req
        });
        tokio::spawn(async move {
            let served = hyper::server::conn::http1::Builder::new()
                .max_buf_size(MAX_HEAD_BYTES)
                .serve_connection(TokioIo::new(stream), TowerToHyperService::new(app))
                .await;
            if let Err(e) = served {
                if !e.is_incomplete_message() {
                    eprintln!("WARN connection from {peer}: {e}");
                }
            }
        });
    }
}
