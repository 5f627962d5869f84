# Writes the harness test logs: /usr/bin/python3 generate.py Fixtures/nmea-harness
import functools, sys
def cs(body): return "%02X" % functools.reduce(lambda a,c: a^ord(c), body, 0)
def s(body): return "$%s*%s\r\n" % (body, cs(body))
def dm(v, lat):
    h = ('N' if v>=0 else 'S') if lat else ('E' if v>=0 else 'W'); v=abs(v); d=int(v); m=(v-d)*60
    return ("%02d%07.4f" if lat else "%03d%07.4f") % (d, m), h
def epochs(start_lat, start_lon, n, hh=12, mm=0, ss=0, date="010624", dlat=0.0001, dlon=0.00015, gst=True):
    out=[]
    for i in range(n):
        t="%02d%02d%05.2f" % (hh, mm, ss+i)
        la, lo = start_lat+i*dlat, start_lon+i*dlon
        lat, ns = dm(la, True); lon, ew = dm(lo, False)
        out.append(s("GPGGA,%s,%s,%s,%s,%s,1,08,0.9,%.1f,M,39.6,M,," % (t,lat,ns,lon,ew,34.5+i*0.1)))
        out.append(s("GPGSA,A,3,04,05,09,12,17,20,24,25,,,,,1.6,0.9,1.3"))
        out.append(s("GPRMC,%s,A,%s,%s,%s,%s,0.5,54.7,%s,,,A" % (t,lat,ns,lon,ew,date)))
        if gst: out.append(s("GPGST,%s,1.5,2.1,1.2,45.0,1.3,1.1,2.4" % t))
    return "".join(out)
open(sys.argv[1] + "/berlin-5-epochs.nmea","w",newline="").write(epochs(52.52, 13.405, 5))
open(sys.argv[1] + "/sydney-3-epochs.nmea","w",newline="").write(epochs(-33.8688, 151.2093, 3, hh=23, mm=59, ss=58, date="311224", gst=False))
