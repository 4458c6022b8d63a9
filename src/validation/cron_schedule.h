// CronJob schedules and time zones as kube-apiserver checks them: the schedule through
// robfig/cron v3's standard parser (five fields, or a descriptor such as @hourly or @every 1h),
// with its error texts, and time zone names as Go's time.LoadLocation resolves them from the
// system's zoneinfo (Debian's tzdata, /usr/share/zoneinfo).
//
// Thread-safety: pure functions (ZoneExists reads the file system).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace kube::validation {

// The parser's error for `schedule` (as cron.ParseStandard's err.Error()), or nullopt when it parses.
std::optional<std::string> CronScheduleError(std::string_view schedule);

// time.LoadLocation's error for `name` ("unknown time zone X", "time: invalid location name"), or
// nullopt when it loads ("UTC" and "" always do).
std::optional<std::string> TimeZoneError(std::string_view name);

}  // namespace kube::validation
