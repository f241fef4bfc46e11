module github.com/apns-mock/apns-mock/clients/go

go 1.19
