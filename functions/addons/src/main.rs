#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    shared::api::run_lambda(addons::api()).await
}
