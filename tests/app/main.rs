//! The desktop app: its commands applied without a window (`commands`), the games panel
//! (`games`), and screenshots of the real window under Xvfb (`window`, on lavapipe in CI; the
//! harnesses are in `tests/common`). Whole frames against the clock are `tests/app_frames.rs`,
//! a binary of its own so that no other test takes the cores from its frames. The viewport's
//! pure coordinate arithmetic is unit-tested in `src/app/viewport.rs`.
#![cfg(feature = "app")]

#[path = "../common/mod.rs"]
mod common;

mod commands;
mod games;
mod gestures;
mod window;

use common::app::*;
use common::xvfb::*;
use eframe::egui;
use lifelab::app::LifelabApp;
use lifelab::app::command::Command;
use lifelab::app::panels::games::GameTab;
use lifelab::engine::CellRect;
use lifelab::grid::Grid;
use lifelab::pattern::library;
