//! AWS SDK configuration: the same code on Lambda and locally; locally every
//! client gets the stand-in's endpoint from [`Config::endpoint_url`].

use aws_config::{BehaviorVersion, Region, SdkConfig};

use crate::config::Config;

pub async fn sdk_config(cfg: &Config) -> SdkConfig {
    let mut loader = aws_config::defaults(BehaviorVersion::latest()).region(Region::new(cfg.region.clone()));
    if let Some(url) = &cfg.endpoint_url {
        loader = loader.endpoint_url(url);
    }
    loader.load().await
}
