#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::api::run_lambda(env!("CARGO_PKG_NAME"), addons::api()).await
}
