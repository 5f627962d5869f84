// Linux's timerfd (not in Swift's Glibc module), for HereWeatherExecutors' TimerThread.
#include <sys/timerfd.h>
